/* Expression language: precedence and associativity against hand values,
 * every function against libm (evaluated and constant-folded), smooth steps
 * at their ends, middle and in their derivatives, tables and natural cubic
 * splines against hand-computed splines, conditionals and NaN, dependencies,
 * error messages and their columns, nesting limits, random expression trees
 * against an independent evaluator, and a fuzz of random and mutated text
 * that must never crash. Prints the evaluation time of a spring force. */
#include <locale.h>
#include <string.h>
#include <time.h>

#include "mt_expr.h"
#include "mt_test.h"

/* ------------------------------------------------------------ environment */

static const char *names[] = {"time", "L", "L0", "k", "c", "Ldot", "x", "y", "crank.wz", "pin.Fy", "arm-1.Fz", "t", "F0"};
static const int slots[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11};
#define NNAMES ((int)(sizeof names / sizeof names[0]))
static double V[12] = {0.25, 0.32, 0.3, 1000, 5, -0.4, 0.7, -1.3, 12.5, -48, 3, 100};

static int resolve(void *user, const char *name, int *slot)
{
    (void)user;
    for (int i = 0; i < NNAMES; i++)
        if (!strcmp(names[i], name)) {
            *slot = slots[i];
            return 1;
        }
    return 0;
}

static const double lin_x[] = {0, 1, 3}, lin_y[] = {0, 10, 4};
static const double tri_x[] = {0, 1, 2}, tri_y[] = {0, 1, 0};
static const double cub_x[] = {0, 1, 2, 3}, cub_y[] = {0, 1, 8, 27};
static const double line_x[] = {0, 0.5, 2}, line_y[] = {1, 2, 5};
static const double one_x[] = {2}, one_y[] = {7};
static const double bad_x[] = {0, 1, 1}, bad_y[] = {0, 1, 2};
static double sin_x[41], sin_y[41], rnd_x[12], rnd_y[12];
static MtExprTable tables[] = {
    {"lin", lin_x, lin_y, 3},   {"tri", tri_x, tri_y, 3}, {"cub", cub_x, cub_y, 4}, {"line", line_x, line_y, 3},
    {"one", one_x, one_y, 1},   {"bad", bad_x, bad_y, 3}, {"sin_tab", sin_x, sin_y, 41},
    {"rnd", rnd_x, rnd_y, 12},
};
static MtExprEnv env = {resolve, NULL, tables, (int)(sizeof tables / sizeof tables[0])};

/* Compiles (failing the check if it does not) and evaluates with V. */
static double ev(const char *src)
{
    MtError err = {0};
    int col = -1;
    MtExpr *e = mt_expr_compile(src, &env, &col, &err);
    CHECK(e != NULL && col == 0, "'%s' compiles: %s", src, err.msg);
    if (!e) return NAN;
    double v = mt_expr_eval(e, V);
    mt_expr_free(e);
    return v;
}

static double evx(const char *src, double x)
{
    double old = V[6];
    V[6] = x;
    double v = ev(src);
    V[6] = old;
    return v;
}

static int same(double a, double b) { return a == b || (a != a && b != b); }

/* The value must equal want exactly (or both be NaN). */
static void exact(const char *src, double want)
{
    double got = ev(src);
    CHECK(same(got, want), "'%s' = %.17g, expected %.17g", src, got, want);
}

/* Compilation must fail at column col with a message containing frag. */
static void bad(const char *src, int col, const char *frag)
{
    MtError err = {0};
    int c = -1;
    MtExpr *e = mt_expr_compile(src, &env, &c, &err);
    char want[32];
    snprintf(want, sizeof want, "column %d: ", col);
    int ok = !e && c == col && err.code == MT_ERR_SYNTAX && !strncmp(err.msg, want, strlen(want)) && strstr(err.msg, frag);
    CHECK(ok, "'%.60s': expected an error at column %d mentioning '%s', got column %d: %s", src, col, frag, c,
          e ? "(compiled)" : err.msg);
    if (ok && strlen(src) < 60) printf("ok   '%s' -> %s\n", src, err.msg);
    mt_expr_free(e);
}

/* ------------------------------------------------------------- libm check */

typedef double (*F1)(double);
typedef double (*F2)(double, double);
static double sign_ref(double x) { return x > 0 ? 1 : x < 0 ? -1 : x; }
static double mod_ref(double a, double b)
{
    double r = fmod(a, b);
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
static double min_ref(double a, double b) { return a != a || b != b ? NAN : a < b ? a : b; }
static double max_ref(double a, double b) { return a != a || b != b ? NAN : a > b ? a : b; }

static void check_functions(void)
{
    static const struct { const char *name; F1 f; } f1[] = {
        {"sin", sin},   {"cos", cos},     {"tan", tan},   {"asin", asin}, {"acos", acos},   {"atan", atan},
        {"sinh", sinh}, {"cosh", cosh},   {"tanh", tanh}, {"exp", exp},   {"log", log},     {"log10", log10},
        {"sqrt", sqrt}, {"abs", fabs},    {"sign", sign_ref}, {"floor", floor}, {"ceil", ceil},
    };
    static const struct { const char *name; F2 f; } f2[] = {
        {"atan2", atan2}, {"pow", pow}, {"hypot", hypot}, {"mod", mod_ref}, {"min", min_ref}, {"max", max_ref},
    };
    static const double xs[] = {-2.5, -0.9, -0.3, 0, 0.2, 0.5, 0.95, 1, 2.5, 10, 700};
    int n = 0, nbad = 0;
    for (size_t i = 0; i < sizeof f1 / sizeof f1[0]; i++) {
        char src[64], lit[64];
        snprintf(src, sizeof src, "%s(x)", f1[i].name);
        MtError err = {0};
        MtExpr *e = mt_expr_compile(src, &env, NULL, &err);
        CHECK(e != NULL, "%s compiles: %s", src, err.msg);
        if (!e) continue;
        for (size_t j = 0; j < sizeof xs / sizeof xs[0]; j++) {
            double v[12];
            memcpy(v, V, sizeof v);
            v[6] = xs[j];
            double want = f1[i].f(xs[j]), got = mt_expr_eval(e, v);
            snprintf(lit, sizeof lit, "%s(%.17g)", f1[i].name, xs[j]);
            double folded = ev(lit);
            n++;
            if (!same(got, want) || !same(folded, want)) {
                nbad++;
                CHECK(0, "%s at %g: got %.17g, folded %.17g, libm %.17g", f1[i].name, xs[j], got, folded, want);
            }
        }
        mt_expr_free(e);
    }
    for (size_t i = 0; i < sizeof f2 / sizeof f2[0]; i++) {
        char src[64], lit[96];
        snprintf(src, sizeof src, "%s(x, y)", f2[i].name);
        MtExpr *e = mt_expr_compile(src, &env, NULL, NULL);
        CHECK(e != NULL, "%s compiles", src);
        if (!e) continue;
        for (size_t j = 0; j < sizeof xs / sizeof xs[0]; j++)
            for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++) {
                double v[12];
                memcpy(v, V, sizeof v);
                v[6] = xs[j];
                v[7] = xs[k];
                double want = f2[i].f(xs[j], xs[k]), got = mt_expr_eval(e, v);
                snprintf(lit, sizeof lit, "%s(%.17g, %.17g)", f2[i].name, xs[j], xs[k]);
                double folded = ev(lit);
                n++;
                if (!same(got, want) || !same(folded, want)) {
                    nbad++;
                    CHECK(0, "%s(%g, %g): got %.17g, folded %.17g, libm %.17g", f2[i].name, xs[j], xs[k], got, folded,
                          want);
                }
            }
        mt_expr_free(e);
    }
    CHECK(nbad == 0, "functions differ from libm");
    printf("%s %d function values equal to libm, evaluated and constant-folded\n", nbad ? "FAIL" : "ok  ", n);
    /* the operator ^ is pow, x^2 is x·x (both correctly rounded) */
    for (int j = 0; j < 200; j++) {
        double x = -10 + 0.1037 * j;
        CHECK(same(evx("x^2", x), pow(x, 2)) && same(evx("x^2.5", x), pow(x, 2.5)) && same(evx("x**3", x), pow(x, 3)),
              "x^2, x^2.5, x**3 at %g", x);
    }
    exact("mod(-1, 360)", 359);
    exact("mod(7, 3)", 1);
    exact("mod(-7, 3)", 2);
    exact("mod(7, -3)", -2);
    exact("mod(5.5, 2)", 1.5);
    exact("mod(1, 0)", NAN);
    exact("sign(-2) + 10*sign(0) + 100*sign(3)", 99);
    exact("min(3, 1, 2)", 1);
    exact("max(3, 1, 2, -7)", 3);
    exact("min(5)", 5);
    exact("hypot(3, 4)", 5);
    exact("atan2(1, -1)", 0.75 * M_PI);
    exact("floor(-2.5) + ceil(-2.5)", -5);
    exact("1/0", INFINITY);
    exact("-1/0", -INFINITY);
    exact("0/0", NAN);
    exact("sqrt(-1)", NAN);
    exact("log(0)", -INFINITY);
    exact("asin(2)", NAN);
    exact("x/0", INFINITY);
    exact("min(x, 0/0)", NAN);
}

/* ------------------------------------------------------------ smooth steps */

static void check_steps(void)
{
    static const char *fn[] = {"step", "step5", "haversine"};
    /* value at d = 1/4 of the way from (0, 1) to (2, 3) */
    double quarter[] = {1 + 2 * 0.0625 * 2.5, 1 + 2 * 0.103515625, 1 + 2 * (1 - cos(M_PI / 4)) / 2};
    double slope_mid[] = {1.5, 1.875, M_PI / 2}; /* dh/dx at x = 1 */
    for (int i = 0; i < 3; i++) {
        char src[64], what[96];
        snprintf(src, sizeof src, "%s(x, 0, 1, 2, 3)", fn[i]);
        CHECK(evx(src, -1) == 1 && evx(src, 0) == 1 && evx(src, 2) == 3 && evx(src, 7) == 3, "%s: h0 before x0, h1 after x1", fn[i]);
        snprintf(what, sizeof what, "%s middle", fn[i]);
        CHECK_ABS(evx(src, 1), 2, 1e-15, what);
        snprintf(what, sizeof what, "%s at a quarter", fn[i]);
        CHECK_ABS(evx(src, 0.5), quarter[i], 1e-15, what);
        double h = 1e-6;
        snprintf(what, sizeof what, "%s slope in the middle", fn[i]);
        CHECK_ABS((evx(src, 1 + h) - evx(src, 1 - h)) / (2 * h), slope_mid[i], 1e-8, what);
        /* first derivative continuous (zero) at both ends */
        double s0 = (evx(src, h) - evx(src, 0)) / h, s1 = (evx(src, 2) - evx(src, 2 - h)) / h;
        snprintf(what, sizeof what, "%s slope just after x0", fn[i]);
        CHECK_ABS(s0, 0, 1e-5, what);
        snprintf(what, sizeof what, "%s slope just before x1", fn[i]);
        CHECK_ABS(s1, 0, 1e-5, what);
        /* second derivative at x0+: 6a/Δ² = 3 for the cubic, 0 for the quintic, π²a/(2Δ²) = π²/4 for haversine */
        double hh = 1e-4, d2 = (evx(src, 2 * hh) - 2 * evx(src, hh) + evx(src, 0)) / (hh * hh);
        double want2[] = {3, 0, M_PI * M_PI / 4};
        snprintf(what, sizeof what, "%s second derivative just after x0", fn[i]);
        CHECK_ABS(d2, want2[i], 2e-2, what);
        /* monotone between the ends */
        double prev = 1;
        int mono = 1;
        for (int j = 1; j <= 100; j++) {
            double v = evx(src, 0.02 * j);
            if (v < prev) mono = 0;
            prev = v;
        }
        CHECK(mono, "%s rises monotonically", fn[i]);
        snprintf(src, sizeof src, "%s(0/0, 0, 1, 2, 3)", fn[i]);
        exact(src, NAN);
    }
    /* Adams form: step(time, 0, 0, 0.5, 1) with time in slot 0 */
    exact("step(time, 0, 0, 0.5, 1)", 0.5);
    exact("havsin(0.25, 0, 0, 0.5, 1)", 0.5);
    /* x1 ≤ x0 given as variables: a sudden step at x0 */
    CHECK(evx("step(x, 1, 0, y, 5)", 0.5) == 0 && evx("step(x, 1, 0, y, 5)", 1.5) == 5, "step with x1 < x0 is sudden");
}

/* ------------------------------------------------------------------ tables */

static double spline_at(const char *tab, double x)
{
    char src[64];
    snprintf(src, sizeof src, "spline(x, %s)", tab);
    return evx(src, x);
}

/* One-sided derivatives from points x, x+h, x+2h, x+3h (h < 0: from the
 * left), exact for cubics: they see one piece of the spline only. */
static double d1_right(const char *tab, double x, double h)
{
    double f0 = spline_at(tab, x), f1 = spline_at(tab, x + h), f2 = spline_at(tab, x + 2 * h), f3 = spline_at(tab, x + 3 * h);
    return (-11 * f0 + 18 * f1 - 9 * f2 + 2 * f3) / (6 * h);
}
static double d2_right(const char *tab, double x, double h)
{
    double f0 = spline_at(tab, x), f1 = spline_at(tab, x + h), f2 = spline_at(tab, x + 2 * h), f3 = spline_at(tab, x + 3 * h);
    return (2 * f0 - 5 * f1 + 4 * f2 - f3) / (h * h);
}

static void check_tables(void)
{
    exact("table(0.5, lin)", 5);
    exact("table(2, lin)", 7);
    CHECK(evx("table(x, lin)", 1) == 10 && evx("table(x, lin)", 3) == 4 && evx("table(x, lin)", 0) == 0, "table at its points");
    CHECK(evx("table(x, lin)", -1) == 0 && evx("table(x, lin)", 5) == 4, "table held constant beyond its ends");
    CHECK(evx("table(x, one)", -1) == 7 && evx("spline(x, one)", 9) == 7, "one-point table is constant");
    CHECK(same(evx("table(x, lin)", NAN), NAN) && same(evx("spline(x, lin)", NAN), NAN), "table of NaN is NaN");
    /* natural spline through (0,0) (1,1) (2,0): M1 = −3, S = 1.5x − 0.5x³ on [0, 1] */
    CHECK_ABS(spline_at("tri", 0.5), 0.6875, 1e-15, "spline tri(0.5)");
    CHECK_ABS(spline_at("tri", 1.5), 0.6875, 1e-15, "spline tri(1.5)");
    CHECK_ABS(spline_at("tri", 0.25), 1.5 * 0.25 - 0.5 * 0.015625, 1e-15, "spline tri(0.25)");
    CHECK(spline_at("tri", 1) == 1 && spline_at("tri", 0) == 0 && spline_at("tri", 2) == 0, "spline tri at its points");
    CHECK(spline_at("tri", -1) == 0 && spline_at("tri", 3) == 0, "spline held constant beyond its ends");
    /* natural spline through x³ at 0..3: M = 0, 4.8, 16.8, 0 (hand solution of the tridiagonal system) */
    CHECK_ABS(spline_at("cub", 0.5), 0.2, 1e-15, "spline cub(0.5)");
    CHECK_ABS(spline_at("cub", 1.5), 3.15, 1e-14, "spline cub(1.5)");
    CHECK_ABS(spline_at("cub", 2.5), 16.45, 1e-14, "spline cub(2.5)");
    double s = 1.25, w = 4.8 * pow(2 - s, 3) / 6 + 16.8 * pow(s - 1, 3) / 6 + (1 - 0.8) * (2 - s) + (8 - 2.8) * (s - 1);
    CHECK_ABS(spline_at("cub", s), w, 1e-14, "spline cub(1.25) against the closed form");
    /* second derivative of the spline: M at the knots */
    double hh = 1e-2;
    CHECK_ABS(d2_right("cub", 1, hh), 4.8, 1e-6, "spline cub'' at x = 1+");
    CHECK_ABS(d2_right("cub", 1, -hh), 4.8, 1e-6, "spline cub'' at x = 1-");
    CHECK_ABS(d2_right("cub", 0, hh), 0, 1e-6, "natural end: spline cub'' at x = 0");
    CHECK_ABS(d2_right("cub", 3, -hh), 0, 1e-6, "natural end: spline cub'' at x = 3");
    /* a line is reproduced exactly, up to rounding */
    CHECK_ABS(spline_at("line", 1.2), 3.4, 1e-14, "spline through a line");
    CHECK_ABS(spline_at("line", 0.1), 1.2, 1e-14, "spline through a line");
    /* sin on [0, π] has zero curvature at the ends, as the natural spline */
    double emax = 0;
    for (int j = 0; j < 400; j++) {
        double x = M_PI * (j + 0.5) / 400;
        double e = fabs(spline_at("sin_tab", x) - sin(x));
        if (e > emax) emax = e;
    }
    CHECK_ABS(emax, 0, 2e-6, "spline through 41 points of sin: largest error");
    /* random points: through every point, C¹ and C² at the inner knots */
    int through = 1;
    double jump1 = 0, jump2 = 0;
    for (int i = 0; i < 12; i++) {
        if (spline_at("rnd", rnd_x[i]) != rnd_y[i]) through = 0;
        if (i == 0 || i == 11) continue;
        double h = 1e-3, x = rnd_x[i];
        double dl = d1_right("rnd", x, -h), dr = d1_right("rnd", x, h);
        if (fabs(dl - dr) / (1 + fabs(dl)) > jump1) jump1 = fabs(dl - dr) / (1 + fabs(dl));
        double ddl = d2_right("rnd", x, -h), ddr = d2_right("rnd", x, h);
        if (fabs(ddl - ddr) / (1 + fabs(ddl)) > jump2) jump2 = fabs(ddl - ddr) / (1 + fabs(ddl));
    }
    CHECK(through, "spline passes exactly through 12 random points");
    CHECK_ABS(jump1, 0, 1e-8, "random spline: largest relative jump of the slope at a knot");
    CHECK_ABS(jump2, 0, 1e-6, "random spline: largest relative jump of the curvature at a knot");
    /* constant argument: folded at compile time */
    MtExpr *e = mt_expr_compile("spline(0.5, tri) + table(2, lin)", &env, NULL, NULL);
    CHECK(e && mt_expr_is_constant(e) && mt_expr_size(e) == 2 && mt_expr_eval(e, NULL) == 7.6875,
          "table look-ups of constants are folded");
    mt_expr_free(e);
    /* the same table twice: one copy */
    exact("table(x, lin) + table(x, lin) + spline(x, lin) - 2*table(0.7, lin)", 7 + 7 + evx("spline(x, lin)", 0.7) - 14);
}

/* ------------------------------------------------------------- random trees */

/* Tree nodes: leaf (var x/y or constant), unary, binary, ternary, call. */
enum { R_NUM, R_X, R_Y, R_NEG, R_NOT, R_ADD, R_SUB, R_MUL, R_DIV, R_POW, R_LT, R_GE, R_EQ, R_AND, R_OR, R_TERN,
       R_SIN, R_SQRT, R_ATAN2, R_MIN, R_MAX, R_IF, R_MOD, R_TABLE };
typedef struct RN { int op; double k; struct RN *a, *b, *c; } RN;

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (unsigned)((rng >> 20) % n);
}

static RN *gen_tree(int depth)
{
    RN *n = calloc(1, sizeof *n);
    int leaf = depth <= 0 || rnd(4) == 0;
    if (leaf) {
        int w = (int)rnd(3);
        n->op = w == 0 ? R_NUM : w == 1 ? R_X : R_Y;
        static const double ks[] = {0, 1, 2, 0.5, 3.25, 10, 1e-3, 7};
        n->k = ks[rnd(8)];
        return n;
    }
    n->op = R_NEG + (int)rnd(R_TABLE - R_NEG + 1);
    n->a = gen_tree(depth - 1);
    if (n->op != R_NEG && n->op != R_NOT && n->op != R_SIN && n->op != R_SQRT && n->op != R_TABLE) n->b = gen_tree(depth - 1);
    if (n->op == R_TERN || n->op == R_IF) n->c = gen_tree(depth - 1);
    return n;
}

static void free_tree(RN *n)
{
    if (!n) return;
    free_tree(n->a);
    free_tree(n->b);
    free_tree(n->c);
    free(n);
}

static double ref(const RN *n, double x, double y)
{
    double a = n->a ? ref(n->a, x, y) : 0, b = n->b ? ref(n->b, x, y) : 0;
#define B(r) (a != a || b != b ? NAN : (r) ? 1.0 : 0.0)
    switch (n->op) {
    case R_NUM: return n->k;
    case R_X: return x;
    case R_Y: return y;
    case R_NEG: return -a;
    case R_NOT: return a != a ? NAN : a == 0;
    case R_ADD: return a + b;
    case R_SUB: return a - b;
    case R_MUL: return a * b;
    case R_DIV: return a / b;
    case R_POW: return pow(a, b);
    case R_LT: return B(a < b);
    case R_GE: return B(a >= b);
    case R_EQ: return B(a == b);
    case R_AND: return B(a != 0 && b != 0);
    case R_OR: return B(a != 0 || b != 0);
    case R_TERN:
    case R_IF: return a != a ? NAN : a != 0 ? b : ref(n->c, x, y);
    case R_SIN: return sin(a);
    case R_SQRT: return sqrt(a);
    case R_ATAN2: return atan2(a, b);
    case R_MIN: return min_ref(a, b);
    case R_MAX: return max_ref(a, b);
    case R_MOD: return mod_ref(a, b);
    case R_TABLE: return !(a > 0) ? (a <= 0 ? 0 : NAN) : a >= 3 ? 4 : a < 1 ? 10 * a : 10 + (4 - 10) * ((a - 1) / 2);
    }
#undef B
    return NAN;
}

/* Precedence levels of the printed form: 1 ?:, 2 ||, 3 &&, 4 comparisons,
 * 5 + −, 6 × ÷, 7 unary, 8 ^, 9 primary. */
static int prec(const RN *n)
{
    switch (n->op) {
    case R_TERN: return 1;
    case R_OR: return 2;
    case R_AND: return 3;
    case R_LT: case R_GE: case R_EQ: return 4;
    case R_ADD: case R_SUB: return 5;
    case R_MUL: case R_DIV: return 6;
    case R_NEG: case R_NOT: return 7;
    case R_POW: return 8;
    case R_NUM: return n->k < 0 ? 7 : 9;
    default: return 9;
    }
}

static void print_tree(const RN *n, int need, char **p, char *end)
{
    int paren = prec(n) < need || rnd(8) == 0; /* sometimes redundant parentheses */
#define OUT(...) do { int w_ = snprintf(*p, (size_t)(end - *p), __VA_ARGS__); if (w_ > 0) *p += w_ < end - *p ? w_ : end - *p - 1; } while (0)
    if (paren) OUT("(");
    static const char *bin[] = {[R_ADD] = " + ", [R_SUB] = " - ", [R_MUL] = "*", [R_DIV] = " / ", [R_POW] = "^",
                                [R_LT] = " < ", [R_GE] = " >= ", [R_EQ] = " == ", [R_AND] = " && ", [R_OR] = " || "};
    static const char *fun[] = {[R_SIN] = "sin", [R_SQRT] = "sqrt", [R_ATAN2] = "atan2", [R_MIN] = "min",
                                [R_MAX] = "max", [R_IF] = "if", [R_MOD] = "mod"};
    int p0 = prec(n);
    switch (n->op) {
    case R_NUM: OUT("%.17g", n->k); break;
    case R_X: OUT("x"); break;
    case R_Y: OUT("y"); break;
    case R_NEG: OUT("-"); print_tree(n->a, 7, p, end); break;
    case R_NOT: OUT("!"); print_tree(n->a, 7, p, end); break;
    case R_POW:
        print_tree(n->a, 9, p, end);
        OUT("^");
        print_tree(n->b, 7, p, end);
        break;
    case R_LT: case R_GE: case R_EQ:
        print_tree(n->a, 5, p, end);
        OUT("%s", bin[n->op]);
        print_tree(n->b, 5, p, end);
        break;
    case R_ADD: case R_SUB: case R_MUL: case R_DIV: case R_AND: case R_OR:
        print_tree(n->a, p0, p, end);
        OUT("%s", bin[n->op]);
        print_tree(n->b, p0 + 1, p, end);
        break;
    case R_TERN:
        print_tree(n->a, 2, p, end);
        OUT(" ? ");
        print_tree(n->b, 1, p, end);
        OUT(" : ");
        print_tree(n->c, 1, p, end);
        break;
    case R_TABLE:
        OUT("table(");
        print_tree(n->a, 1, p, end);
        OUT(", lin)");
        break;
    default:
        OUT("%s(", fun[n->op]);
        print_tree(n->a, 1, p, end);
        if (n->b) { OUT(", "); print_tree(n->b, 1, p, end); }
        if (n->c) { OUT(", "); print_tree(n->c, 1, p, end); }
        OUT(")");
    }
    if (paren) OUT(")");
#undef OUT
}

static void check_random_trees(void)
{
    int ntree = 3000, nexact = 0, nclose = 0, nbad = 0;
    static char buf[1 << 16];
    for (int i = 0; i < ntree; i++) {
        RN *t = gen_tree(1 + (int)rnd(6));
        char *p = buf;
        print_tree(t, 1, &p, buf + sizeof buf);
        MtError err = {0};
        MtExpr *e = mt_expr_compile(buf, &env, NULL, &err);
        if (!e) {
            nbad++;
            CHECK(0, "random tree '%s' does not compile: %s", buf, err.msg);
            free_tree(t);
            continue;
        }
        for (int j = 0; j < 4; j++) {
            double x = j == 0 ? 0 : (int)rnd(2000) / 100.0 - 10, y = j == 1 ? 1 : (int)rnd(2000) / 100.0 - 10;
            double v[12];
            memcpy(v, V, sizeof v);
            v[6] = x;
            v[7] = y;
            double got = mt_expr_eval(e, v), want = ref(t, x, y);
            if (same(got, want)) nexact++;
            else if (fabs(got - want) <= 1e-13 * fabs(want)) nclose++;
            else {
                nbad++;
                CHECK(0, "'%s' at x = %g, y = %g: got %.17g, reference %.17g", buf, x, y, got, want);
            }
        }
        mt_expr_free(e);
        free_tree(t);
    }
    CHECK(nbad == 0, "random trees");
    printf("%s %d random expression trees (minimal and redundant parentheses) x 4 points: %d equal to the reference "
           "evaluator, %d within 1e-13\n", nbad ? "FAIL" : "ok  ", ntree, nexact, nclose);
}

/* ----------------------------------------------------------------- fuzzing */

static int count_cp(const char *s)
{
    int n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) n++;
    return n;
}

static int fuzz_one(const char *s)
{
    MtError err = {0};
    int col = -1;
    MtExpr *e = mt_expr_compile(s, &env, &col, &err);
    if (e) {
        double v[12];
        memcpy(v, V, sizeof v);
        volatile double r = mt_expr_eval(e, v);
        (void)r;
        const int *d;
        int nd = mt_expr_deps(e, &d);
        for (int i = 0; i < nd; i++)
            if (d[i] < 0 || d[i] >= 12 || (i && d[i] <= d[i - 1])) return 0;
        mt_expr_free(e);
        return col == 0;
    }
    char pre[32];
    snprintf(pre, sizeof pre, "column %d: ", col);
    return col >= 1 && col <= count_cp(s) + 1 && !strncmp(err.msg, pre, strlen(pre)) && strlen(err.msg) > strlen(pre);
}

static void check_fuzz(void)
{
    static const char alphabet[] = "0123456789.eE+-*/^()<>=!&|?:,  xytLk_sincoaexpqrtbmhdl`";
    static const char *corpus[] = {
        "-k*(L - L0) - c*Ldot + F0*step(time, 0, 0, 0.5, 1)",
        "if(x > 0 && y <= 1, sin(x)^2, -cos(y)) + max(1, x, y)",
        "x < 1 ? table(x, lin) : spline(x, cub) * 1e-3",
        "haversine(t, 0.1, 0, 0.2, 1) * `arm-1.Fz` + crank.wz / pin.Fy",
        "atan2(y, x) + hypot(x, y) - mod(x, 2*pi) + log10(abs(y)) ** 2",
        "−x × 2 ≤ 3 ≠ 0",
        "((((x))))+!(!y)-step5(x,1,2,3,4)",
    };
    int n = 0, nbad = 0;
    char s[512];
    for (int i = 0; i < 20000; i++) {
        int len = (int)rnd(40);
        for (int j = 0; j < len; j++) {
            unsigned r = rnd(100);
            s[j] = r < 95 ? alphabet[rnd(sizeof alphabet - 1)] : (char)(1 + rnd(255));
        }
        s[len] = 0;
        n++;
        if (!fuzz_one(s)) {
            nbad++;
            CHECK(0, "fuzz: bad result for random text '%s'", s);
        }
    }
    for (int i = 0; i < 30000; i++) {
        const char *base = corpus[rnd(sizeof corpus / sizeof corpus[0])];
        snprintf(s, sizeof s, "%s", base);
        int nm = 1 + (int)rnd(4);
        for (int m = 0; m < nm; m++) {
            int len = (int)strlen(s), at = len ? (int)rnd((unsigned)len + 1) : 0;
            switch (rnd(5)) {
            case 0: /* delete a span */
                if (len) {
                    int k = 1 + (int)rnd(6);
                    if (at + k > len) k = len - at;
                    memmove(s + at, s + at + k, (size_t)(len - at - k + 1));
                }
                break;
            case 1: /* insert a character */
                if (len < 400) {
                    memmove(s + at + 1, s + at, (size_t)(len - at + 1));
                    s[at] = rnd(10) ? alphabet[rnd(sizeof alphabet - 1)] : (char)(1 + rnd(255));
                }
                break;
            case 2: /* replace a character */
                if (at < len) s[at] = alphabet[rnd(sizeof alphabet - 1)];
                break;
            case 3: /* duplicate a span */
                if (len && len < 300) {
                    int k = 1 + (int)rnd(20);
                    if (at + k > len) k = len - at;
                    memmove(s + at + k, s + at, (size_t)(len - at + 1));
                }
                break;
            default: /* truncate */
                s[at] = 0;
            }
        }
        n++;
        if (!fuzz_one(s)) {
            nbad++;
            CHECK(0, "fuzz: bad result for mutated text '%s'", s);
        }
    }
    CHECK(nbad == 0, "fuzz");
    printf("%s fuzz: %d random and mutated texts, every one compiled and evaluated or reported at a valid column\n",
           nbad ? "FAIL" : "ok  ", n);
}

/* ---------------------------------------------------------------- nesting */

static char *repeat(const char *pre, int n, const char *mid, const char *post)
{
    size_t lp = strlen(pre), lq = strlen(post);
    char *s = malloc(lp * (size_t)n + strlen(mid) + lq * (size_t)n + 1), *p = s;
    for (int i = 0; i < n; i++) memcpy(p, pre, lp), p += lp;
    strcpy(p, mid);
    p += strlen(mid);
    for (int i = 0; i < n; i++) memcpy(p, post, lq), p += lq;
    *p = 0;
    return s;
}

static void check_nesting(void)
{
    char *s = repeat("(", 90, "x", ")");
    CHECK(evx(s, 3) == 3, "90 parentheses");
    free(s);
    s = repeat("(", 200, "1", ")");
    bad(s, 101, "too deeply nested");
    free(s);
    s = repeat("(", 100000, "1", ")");
    bad(s, 101, "too deeply nested");
    free(s);
    s = repeat("-", 100000, "1", "");
    bad(s, 100, "too deeply nested");
    free(s);
    s = repeat("2^", 5000, "1", "");
    bad(s, 200, "too deeply nested");
    free(s);
    s = repeat("1?", 5000, "1", ":1");
    bad(s, 201, "too deeply nested");
    free(s);
    s = repeat("sin(", 5000, "x", ")");
    bad(s, 401, "too deeply nested");
    free(s);
    s = repeat("sin(", 90, "x", ")");
    double w = 0.7;
    for (int i = 0; i < 90; i++) w = sin(w);
    CHECK(evx(s, 0.7) == w, "90 nested calls");
    free(s);
    /* right-nested sums need a deep stack: 96 entries is fine */
    s = repeat("x+(", 95, "x", ")");
    CHECK(evx(s, 0.5) == 48, "x+(x+(…)) 95 levels deep");
    free(s);
    /* five-argument calls nested in the last argument exhaust the stack first */
    s = repeat("step(x,0,0,1,", 80, "x", ")");
    bad(s, 838, "too deeply nested");
    free(s);
    /* long flat chains are not nesting: 100000 terms compile and evaluate */
    s = repeat("x+", 100000, "x", "");
    CHECK(evx(s, 0.5) == 50000.5, "sum of 100001 terms");
    free(s);
    s = repeat("x*", 3000, "1", "");
    CHECK(evx(s, 1.0001) == pow(1.0001, 3000) || fabs(evx(s, 1.0001) / pow(1.0001, 3000) - 1) < 1e-12, "product of 3000 factors");
    free(s);
    /* 50000 arguments to min */
    size_t cap = 50000 * 7 + 16;
    s = malloc(cap);
    char *p = s + sprintf(s, "min(");
    for (int i = 0; i < 50000; i++) p += sprintf(p, i ? ",%d" : "%d", 50000 - i);
    strcpy(p, ")");
    exact(s, 1);
    free(s);
}

/* ------------------------------------------------------------------ speed */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void timing(const char *src)
{
    MtExpr *e = mt_expr_compile(src, &env, NULL, NULL);
    if (!e) return;
    double v[12];
    memcpy(v, V, sizeof v);
    int n = 2000000;
    volatile double sink = 0;
    double t0 = now();
    for (int i = 0; i < n; i++) {
        v[1] = 0.3 + 1e-7 * (i & 1023);
        v[0] = 1e-6 * i;
        sink = sink + mt_expr_eval(e, v);
    }
    double t1 = now();
    printf("     %.1f ns per evaluation (%d instructions): %s\n", 1e9 * (t1 - t0) / n, mt_expr_size(e), src);
    mt_expr_free(e);
}

/* ------------------------------------------------------------------- main */

/* Switches LC_NUMERIC to a locale whose decimal point is not '.': an
 * installed one, else de_DE compiled into a temporary LOCPATH with localedef
 * (needs the locale sources); returns its name or NULL. */
static char comma_dir[64];
static const char *comma_locale(void)
{
    static const char *locs[] = {"de_DE.UTF-8", "ru_RU.UTF-8", "fr_FR.UTF-8", "de_DE", "ru_RU"};
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sizeof locs / sizeof locs[0]; i++)
            if (setlocale(LC_NUMERIC, locs[i]) && strcmp(localeconv()->decimal_point, ".")) return locs[i];
        if (pass) break;
        snprintf(comma_dir, sizeof comma_dir, "/tmp/motus-locale-XXXXXX");
        if (!mkdtemp(comma_dir)) return NULL;
        char cmd[256];
        snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1", comma_dir);
        if (system(cmd) != 0) break;
        setenv("LOCPATH", comma_dir, 1);
    }
    return NULL;
}
static void comma_locale_done(void)
{
    setlocale(LC_NUMERIC, "C");
    if (comma_dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", comma_dir);
        if (system(cmd) != 0) printf("could not remove %s\n", comma_dir);
        unsetenv("LOCPATH");
    }
}

static int resolve_e(void *user, const char *name, int *slot)
{
    (void)user;
    if (!strcmp(name, "e")) return *slot = 3, 1;
    if (!strcmp(name, "neg")) return *slot = -1, 1;
    return 0;
}

/* Derivatives along x (slot 6) by mt_expr_eval_jet: exact on closed forms,
 * and against central differences of mt_expr_eval for every operation. */
static void jets(void)
{
    MtError err = {0};
    struct { const char *src; double x; } fd[] = {
        {"x^3 - 2*x + 1", 0.7}, {"sin(x)*cos(2*x) + tan(x/3)", 0.7}, {"asin(x/2) + acos(x/3) + atan(x)", 0.7},
        {"sinh(x) + cosh(x/2) + tanh(3*x)", 0.7}, {"exp(-x)*log(x + 2) + log10(x + 1)", 0.7}, {"sqrt(x + 1)^3", 0.7},
        {"abs(x - 1) + x/(1 + x*x)", 0.7}, {"x^x + 2^x + x^-1.5", 0.7}, {"atan2(x, 2 - x) + hypot(x, 3)", 0.7},
        {"mod(5*x, 2) + min(x, 0.5) + max(x*x, 0.2)", 0.7}, {"step(x, 0, 1, 1.5, 3) + step5(x, 0.2, 0, 1, 2)", 0.7},
        {"haversine(x, 0, 1, 2, -1)", 0.7}, {"spline(x, sin_tab) + table(x, lin)", 0.7}, {"spline(x*3, cub)", 0.7},
        {"x > 0.5 ? x*x : -x", 0.7}, {"if(x < 0.5, x, 3*x^2) + floor(x) + sign(x)", 0.7}, {"(x + L)/(x - k) + x*Ldot - c", 0.7},
        {"x^2 + -x + (x + 1)^2", 0.7}};
    double worst = 0;
    for (size_t i = 0; i < sizeof fd / sizeof fd[0]; i++) {
        int col;
        MtExpr *e = mt_expr_compile(fd[i].src, &env, &col, &err);
        CHECK(e != NULL, "'%s' compiles: %s", fd[i].src, err.msg);
        if (!e) continue;
        double j[3], W[12], h = 1e-4, x = fd[i].x;
        memcpy(W, V, sizeof W);
        W[6] = 1e300; /* the jet must not read the variable's slot */
        mt_expr_eval_jet(e, W, 6, x, j);
        double f[5];
        for (int k = -2; k <= 2; k++) W[6] = x + k * h, f[k + 2] = mt_expr_eval(e, W);
        /* fourth-order central differences */
        double d1 = (f[0] - 8 * f[1] + 8 * f[3] - f[4]) / (12 * h), d2 = (-f[0] + 16 * f[1] - 30 * f[2] + 16 * f[3] - f[4]) / (12 * h * h);
        double e0 = fabs(j[0] - f[2]) / fmax(1, fabs(f[2])), e1 = fabs(j[1] - d1) / fmax(1, fabs(d1)), e2 = fabs(j[2] - d2) / fmax(1, fabs(d2));
        CHECK(e0 <= 1e-15 && e1 <= 1e-9 && e2 <= 1e-6, "jet of '%s' at %g: %.17g %.17g %.17g, differences %.17g %.17g %.17g",
              fd[i].src, x, j[0], j[1], j[2], f[2], d1, d2);
        worst = fmax(worst, fmax(e1, e2 * 1e-3));
        mt_expr_free(e);
    }
    /* closed forms, to rounding */
    int col;
    MtExpr *e = mt_expr_compile("0.3*sin(2*pi*0.5*x + 0.2) + x^2/4", &env, &col, &err);
    for (double x = -1; x <= 2; x += 0.37) {
        double j[3], w = M_PI;
        mt_expr_eval_jet(e, V, 6, x, j);
        double d1 = 0.3 * w * cos(w * x + 0.2) + x / 2, d2 = -0.3 * w * w * sin(w * x + 0.2) + 0.5;
        CHECK(fabs(j[1] - d1) <= 1e-14 && fabs(j[2] - d2) <= 1e-14, "harmonic jet at %g: %.17g %.17g (exact %.17g %.17g)", x, j[1], j[2], d1, d2);
    }
    mt_expr_free(e);
    printf("jets: %zu expressions against 4th-order differences (worst first-derivative error %.2g)\n", sizeof fd / sizeof fd[0], worst);
}

int main(void)
{
    for (int i = 0; i < 41; i++) sin_x[i] = M_PI * i / 40, sin_y[i] = sin(sin_x[i]);
    double xr = 0;
    for (int i = 0; i < 12; i++) {
        xr += 0.05 + rnd(1000) / 500.0;
        rnd_x[i] = xr;
        rnd_y[i] = rnd(2000) / 100.0 - 10;
    }

    /* precedence and associativity */
    exact("1 + 2*3", 7);
    exact("(1 + 2)*3", 9);
    exact("2^3^2", 512);
    exact("2**3**2", 512);
    exact("-2^2", -4);
    exact("(-2)^2", 4);
    exact("2^-1", 0.5);
    exact("2*3^2", 18);
    exact("10 - 4 - 3", 3);
    exact("100/10/5", 2);
    exact("-3*-2", 6);
    exact("1 - -1", 2);
    exact("- - 5", 5);
    exact("+5", 5);
    exact("1 + 2 > 2", 1);
    exact("1 < 2 && 3 > 2", 1);
    exact("1 || 0 && 0", 1);
    exact("(1 || 0) && 0", 0);
    exact("!0 + 1", 2);
    exact("!(2 > 1)", 0);
    exact("0 ? 1 : 2", 2);
    exact("1 ? 2 : 3 ? 4 : 5", 2);
    exact("0 ? 2 : 0 ? 4 : 5", 5);
    exact("1 + 2 > 2 ? 10 : 20", 10);
    exact("3 − 1", 2);
    exact("2 × 3 · 4 ⋅ 0.5", 12);
    exact("6 ÷ 4", 1.5);
    exact("(2 ≤ 3) + (2 ≥ 3) + (2 ≠ 3)", 2);
    exact("1e3 + .5 + 5. + 2E-1 + 1e+1 + 3e-0", 1e3 + .5 + 5. + 2E-1 + 1e+1 + 3e-0);
    exact("pi", M_PI);
    exact("π/2", M_PI / 2);
    exact("e", M_E);
    exact("2*pi*0.5", M_PI);
    exact("x*y + x/y - x^2", 0.7 * -1.3 + 0.7 / -1.3 - 0.7 * 0.7);
    exact("crank.wz * 2 + pin.Fy", -23);
    exact("`arm-1.Fz` + `x`", V[10] + V[6]);
    exact("time + t", 0.5);
    exact("\t1 +\n 2\r ", 3);
    exact("1\xc2\xa0+\xe2\x80\xaf" "2", 3); /* no-break spaces */
    exact("-k*(L - L0) - c*Ldot", -1000 * (0.32 - 0.3) - 5 * -0.4);

    /* comparisons and logic, NaN conditions */
    CHECK(evx("x > 0", 1) == 1 && evx("x > 0", -1) == 0 && evx("x == 1", 1) == 1 && evx("x != 1", 1) == 0, "comparisons");
    CHECK(evx("if(x > 0, 1, 2)", 3) == 1 && evx("if(x > 0, 1, 2)", -3) == 2, "if()");
    CHECK(evx("x > 0 ? 1 : 2", 3) == 1 && evx("x > 0 ? 1 : 2", -3) == 2, "?:");
    CHECK(evx("if(x, 1, 2) + (x ? 10 : 20)", 0) == 22 && evx("if(x, 1, 2) + (x ? 10 : 20)", -0.5) == 11, "numbers as conditions");
    CHECK(evx("if(x == 0, 0, 1/x)", 0) == 0 && evx("x > 1 ? log(x - 1) : -1", 0.5) == -1, "untaken branch not evaluated");
    CHECK(evx("if(x < 0, -1, if(x < 1, 0, 1))", -2) == -1 && evx("if(x < 0, -1, if(x < 1, 0, 1))", 0.5) == 0 &&
          evx("if(x < 0, -1, if(x < 1, 0, 1))", 5) == 1, "nested if()");
    static const char *nan_conds[] = {"x > 0", "x <= 0", "x == x", "x != 1", "!x", "x && 1", "0 || x", "0 && x",
                                      "if(x > 0, 1, 2)", "x < 1 ? 1 : 2", "1 + (x ? 1 : 2)", "if(x, 1, 2) * 0"};
    for (size_t i = 0; i < sizeof nan_conds / sizeof nan_conds[0]; i++)
        CHECK(same(evx(nan_conds[i], NAN), NAN), "'%s' with x NaN gives NaN, got %g", nan_conds[i], evx(nan_conds[i], NAN));
    exact("if(0/0, 1, 2)", NAN);

    check_functions();
    check_steps();
    check_tables();

    /* dependencies, constants, literals */
    MtError err = {0};
    MtExpr *e = mt_expr_compile("k*(L - L0) - c*Ldot + k + L", &env, NULL, &err);
    const int *d = NULL;
    int nd = mt_expr_deps(e, &d);
    CHECK(nd == 5 && d[0] == 1 && d[1] == 2 && d[2] == 3 && d[3] == 4 && d[4] == 5 && mt_expr_nvars(e) == 6 &&
          !mt_expr_is_constant(e), "dependencies: sorted distinct slots 1..5, nvars 6 (got %d)", nd);
    mt_expr_free(e);
    e = mt_expr_compile("if(1, L, k) + 0*time + step(2, 0, 0, 1, c)", &env, NULL, &err);
    nd = mt_expr_deps(e, &d);
    CHECK(nd == 3 && d[0] == 0 && d[1] == 1 && d[2] == 4, "folded branch drops its dependency (got %d)", nd);
    mt_expr_free(e);
    e = mt_expr_compile("2*pi*sqrt(1000/2.5) + max(1, 2) - (3 > 2 ? 1 : 0)", &env, NULL, &err);
    CHECK(e && mt_expr_is_constant(e) && mt_expr_size(e) == 2 && mt_expr_nvars(e) == 0 && mt_expr_deps(e, &d) == 0,
          "constant expression folds to one instruction");
    CHECK_ABS(mt_expr_eval(e, NULL), 2 * M_PI * sqrt(400) + 1, 1e-12, "folded constant");
    mt_expr_free(e);
    e = mt_expr_compile("k*(L - L0)", &env, NULL, &err);
    CHECK(e && mt_expr_size(e) <= 5, "k*(L - L0): %d instructions", mt_expr_size(e));
    mt_expr_free(e);
    double v;
    CHECK(mt_expr_is_number("2.5", &v) && v == 2.5, "'2.5' is a number");
    CHECK(mt_expr_is_number("  -1e-3 ", &v) && v == -1e-3, "' -1e-3 ' is a number");
    CHECK(mt_expr_is_number("+7", &v) && v == 7, "'+7' is a number");
    CHECK(mt_expr_is_number("\xe2\x88\x92" "3", &v) && v == -3, "'−3' is a number");
    CHECK(mt_expr_is_number(".5", &v) && v == 0.5 && mt_expr_is_number("5.", &v) && v == 5, "'.5' and '5.' are numbers");
    CHECK(!mt_expr_is_number("1+1", &v) && !mt_expr_is_number("pi", &v) && !mt_expr_is_number("", &v) &&
          !mt_expr_is_number("1e999", &v) && !mt_expr_is_number("0x10", &v) && !mt_expr_is_number("1 2", &v) &&
          !mt_expr_is_number("--1", &v) && !mt_expr_is_number("1e", &v) && !mt_expr_is_number(NULL, &v),
          "expressions, empty text, overflow and hex are not plain numbers");
    size_t n = mt_expr_scan_number("12.5e-1xyz", &v);
    CHECK(n == 7 && v == 1.25, "scan '12.5e-1xyz': 7 bytes, 1.25 (got %zu, %g)", n, v);
    n = mt_expr_scan_number("3em", &v);
    CHECK(n == 1 && v == 3, "scan '3em': 'e' without digits is not read");
    CHECK(mt_expr_scan_number("abc", &v) == 0 && mt_expr_scan_number(".", &v) == 0, "scan: no number");
    CHECK(mt_expr_eval_constant("2*L + 1", resolve, NULL, V, &v, &err) == MT_OK && v == 2 * 0.32 + 1, "eval_constant");
    CHECK(mt_expr_eval_constant("2*Lx", resolve, NULL, V, &v, &err) == MT_ERR_SYNTAX &&
          !strcmp(err.msg, "column 3: unknown name 'Lx'"), "eval_constant error: %s", err.msg);
    CHECK(mt_expr_eval_constant("sqrt(-1)", NULL, NULL, NULL, &v, NULL) == MT_OK && v != v, "eval_constant: NaN is a value");
    /* a name bound by the resolver shadows the constant e */
    MtExprEnv env_e = {resolve_e, NULL, NULL, 0};
    e = mt_expr_compile("e*2", &env_e, NULL, &err);
    CHECK(e && mt_expr_eval(e, V) == 2000, "resolver's 'e' shadows the constant");
    mt_expr_free(e);
    e = mt_expr_compile("neg + 1", &env_e, NULL, &err);
    CHECK(!e && strstr(err.msg, "column 1:"), "negative slot from the resolver is an error: %s", err.msg);
    mt_expr_free(e);
    e = mt_expr_compile("pi*x", NULL, NULL, &err);
    CHECK(!e && !strcmp(err.msg, "column 4: unknown name 'x'"), "no environment: %s", err.msg);
    CHECK(mt_expr_compile(NULL, &env, NULL, &err) == NULL && err.code == MT_ERR_ARG, "NULL source");
    CHECK(same(mt_expr_eval(NULL, V), NAN) && mt_expr_deps(NULL, &d) == 0, "NULL expression");

    /* errors and their columns */
    bad("k*(Lx - L0)", 4, "unknown name 'Lx'");
    bad("1 +", 4, "expected a value at the end");
    bad("(1 + 2", 7, "the '(' at column 1 is not closed");
    bad("sin(x", 6, "the '(' at column 4 is not closed");
    bad("(1 + 2 3)", 8, "expected ')' or an operator, found '3'");
    bad("sin(1, 2)", 8, "too many arguments: 'sin' takes 1");
    bad("atan2(1)", 1, "'atan2' takes 2 arguments, found 1");
    bad("step(x, 0, 1)", 1, "'step' takes 5 arguments, found 3");
    bad("sin()", 1, "'sin' takes 1 argument, found 0");
    bad("min()", 1, "'min' needs at least one argument");
    bad("foo(1)", 1, "unknown function 'foo'");
    bad("x + sqr(2)", 5, "unknown function 'sqr'");
    bad("sin + 1", 1, "'sin' is a function");
    bad("1 2", 3, "expected an operator or the end, found '2'");
    bad("x y", 3, "found 'y'");
    bad("2 $ 3", 3, "unexpected '$'");
    bad("x = 1", 3, "write '==' to compare");
    bad("x & y", 3, "'&&'");
    bad("x | y", 3, "'||'");
    bad("1 < 2 < 3", 7, "comparisons cannot be chained");
    bad("1 ? 2", 6, "expected ':' for the '?' at column 3");
    bad("1 : 2", 3, "':' without a '?'");
    bad("1, 2", 2, "outside the arguments");
    bad(")", 1, "expected a value, found ')'");
    bad("1 + 2)", 6, "')' without a matching '('");
    bad("f(,)", 1, "unknown function 'f'");
    bad("max(1,)", 7, "expected a value, found ')'");
    bad("", 1, "empty expression");
    bad("   ", 1, "empty expression");
    bad("1e", 1, "malformed number '1e'");
    bad("1.2.3 + x", 1, "malformed number '1.2.3'");
    bad("x + 25mm", 7, "a number cannot be followed by a name");
    bad("30°", 3, "without units");
    bad("1e999", 1, "number '1e999' is too large");
    bad("step(x, 1, 0, 1, 1)", 1, "x1 (1) must be greater than x0 (1)");
    bad("haversine(x, 2, 0, 1, 1)", 1, "must be greater");
    bad("L + αβ", 5, "unknown name 'αβ'");
    bad("π·π + Lx", 7, "unknown name 'Lx'");
    bad("1 + \xff", 5, "byte 0xFF (not valid UTF-8)");
    bad("1 + \x01", 5, "control character 0x01");
    bad("x + `arm-1", 5, "not closed");
    bad("``", 1, "empty quoted name");
    bad("table(x, 2)", 10, "must be the name of a table, found '2'");
    bad("table(x, nope)", 10, "unknown table 'nope'");
    bad("spline(x)", 9, "'spline' takes 2 arguments");
    bad("table(x, lin, 2)", 13, "expected ')' after the table name");
    bad("table(x, bad)", 10, "table 'bad': x must increase from point to point (point 3");
    bad("x.", 2, "unexpected '.'");
    bad(".", 1, "unexpected '.'");
    bad("x ^", 4, "expected a value at the end");
    bad("!", 2, "expected a value");
    {
        char big[300];
        memset(big, 'a', 299);
        big[299] = 0;
        bad(big, 1, "name too long");
    }
    char caret[200];
    mt_expr_caret("k*(Lx - L0)", 4, caret, sizeof caret);
    CHECK(!strcmp(caret, "k*(Lx - L0)\n   ^"), "caret: got\n%s", caret);
    mt_expr_caret("αβ\t+ Lx", 6, caret, sizeof caret);
    CHECK(!strcmp(caret, "αβ + Lx\n     ^"), "caret with UTF-8 and a tab: got\n%s", caret);
    mt_expr_caret("k*(Lx - L0)", 4, caret, 5);
    CHECK(strlen(caret) <= 4, "caret truncated to the buffer");

    check_nesting();
    check_random_trees();
    check_fuzz();

    /* numbers do not depend on the C locale */
    const char *loc = comma_locale();
    int tried = loc != NULL;
    if (loc) {
        exact("2.5*2 + .25", 5.25);
        CHECK(mt_expr_is_number("0.125", &v) && v == 0.125, "is_number under %s", loc);
    }
    comma_locale_done();
    printf("%s numbers under a locale with a decimal comma\n", tried ? "ok  " : "skip");

    timing("-k*(L - L0) - c*Ldot");
    timing("-k*(L - L0) - c*Ldot + F0*step(time, 0, 0, 0.5, 1)");
    timing("if(L > L0, -k*(L - L0)^2, 0) - c*Ldot*abs(Ldot)");
    timing("F0*sin(2*pi*1.5*time) + table(time, lin)");
    jets();
    return mt_test_done();
}
