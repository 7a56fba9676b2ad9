/* mt_expr.h — the expression language of forces, drivers, sensors and
 * parameters (docs/expressions.md): an expression is compiled once, when the
 * model is compiled, into a compact program for a small stack machine, and
 * then evaluated as often as needed with no allocation.
 *
 * Names in an expression (time, parameters, sensor values, "crank.wz") are
 * bound at compile time by a caller-supplied resolver to slots of a
 * const double array passed at evaluation. Tables for table()/spline() are
 * supplied by the caller; their points (and spline coefficients) are copied
 * into the compiled expression, which is self-contained and immutable: any
 * number of threads may evaluate one expression at the same time. */
#ifndef MT_EXPR_H
#define MT_EXPR_H

#include <stddef.h>

#include "motus/error.h"

/* Limits: nesting depth (parentheses, arguments, unary operators, '?:',
 * '^'), evaluation stack, length of a name and of the source text. */
#define MT_EXPR_MAX_NESTING 100
#define MT_EXPR_MAX_STACK 256
#define MT_EXPR_MAX_NAME 255
#define MT_EXPR_MAX_SOURCE (1 << 20)

typedef struct MtExpr MtExpr;

/* Binds a name to a slot: returns 1 and sets *slot (>= 0) when the name is
 * known, 0 when it is not (the compiler then tries the constants pi and e,
 * then reports "unknown name"). A known name shadows pi and e. */
typedef int (*MtExprResolve)(void *user, const char *name, int *slot);

/* A table of points for table(x, NAME) and spline(x, NAME): n >= 1 points,
 * x strictly increasing, all finite. Only read during compilation. */
typedef struct MtExprTable {
    const char *name;
    const double *x, *y;
    int n;
} MtExprTable;

/* What names and tables an expression may use; every field may be 0/NULL. */
typedef struct {
    MtExprResolve resolve;
    void *user;
    const MtExprTable *tables;
    int ntables;
} MtExprEnv;

/* Compiles src (UTF-8). On success returns the expression and sets *errcol
 * (if not NULL) to 0. On failure returns NULL, sets *errcol to the 1-based
 * column (in characters) of the problem and fills err with MT_ERR_SYNTAX and
 * a message "column C: ...", e.g. "column 7: unknown name 'Lx'"; the entity
 * is left empty for the caller to prefix (entity, field). env may be NULL. */
MtExpr *mt_expr_compile(const char *src, const MtExprEnv *env, int *errcol, MtError *err);
void mt_expr_free(MtExpr *e);

/* Value of e; vars[slot] holds the value of each name the resolver bound
 * (vars may be NULL when the expression reads none). No allocation, no
 * error: division by zero and domain errors give inf or NaN, and a NaN
 * condition makes a comparison, a logical operator or if() NaN. */
double mt_expr_eval(const MtExpr *e, const double *vars);

/* Value and first two derivatives of e with respect to the variable in slot
 * `slot`, at vars[slot] = x (vars[slot] itself is not read; the other
 * variables are constants): out = {e, de/dx, d²e/dx²}, exact (forward
 * differentiation of the program, no difference quotients). Comparisons,
 * floor, ceil and sign have zero derivative; min, max and if() take the
 * derivatives of the branch taken; tables are differentiated piecewise.
 * For drivers' laws of time. */
void mt_expr_eval_jet(const MtExpr *e, const double *vars, int slot, double x, double out[3]);

/* Slots e reads, sorted and distinct (for dependency order and cycle
 * detection among parameters); returns their number. Parts removed by
 * constant folding, like the untaken branch of if(1, a, b), are not read. */
int mt_expr_deps(const MtExpr *e, const int **slots);
/* 1 + the largest slot e reads (0 if none): the length vars must have. */
int mt_expr_nvars(const MtExpr *e);
/* 1 if e reads no variable (its value never changes). */
int mt_expr_is_constant(const MtExpr *e);
/* Number of instructions of the compiled program (for tests and tuning). */
int mt_expr_size(const MtExpr *e);

/* Compiles, evaluates once with vars and frees: for parameters and other
 * values given by an expression. Returns MT_OK and sets *value, or an error
 * (err as for mt_expr_compile). The value may be inf or NaN. */
MtStatus mt_expr_eval_constant(const char *src, MtExprResolve resolve, void *user, const double *vars,
                               double *value, MtError *err);

/* 1 if src is a plain number literal, optionally signed and surrounded by
 * white space ("2.5", "-1e-3", " 7 "), with a finite value stored in *value;
 * 0 otherwise (then it is an expression, or an error). */
int mt_expr_is_number(const char *src, double *value);

/* Reads an unsigned decimal number at s (digits, optional '.', optional
 * exponent; independent of the C locale): returns the number of bytes read
 * (0 if s does not start with a number) and the value in *value (inf when it
 * overflows). An 'e' not followed by digits is not read. */
size_t mt_expr_scan_number(const char *s, double *value);

/* Writes src and, under it, a caret at column col ("k*(Lx - L0)\n   ^"),
 * tabs and line breaks shown as spaces, into buf (always terminated). */
void mt_expr_caret(const char *src, int col, char *buf, size_t size);

#endif
