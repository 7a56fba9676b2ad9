/* motus/study.h — studies (docs/studies.md): design variables (parameters of
 * the model given a range or a list of values), a design that turns them into
 * cases (full factorial grid, Latin hypercube, a table of cases, one at a
 * time), and responses computed from each case's result columns (a value at a
 * time; min, max, mean, RMS over a time window; the peak of a Welch PSD in a
 * band; an expression of these); or, instead of a design, an objective
 * with constraints that an optimiser minimises or maximises over the
 * responses (motus/study_run.h). The description is kept with the model
 * (`study …` lines of the text format, the project's study tables);
 * running a case and computing its responses is motus/study_run.h. */
#ifndef MOTUS_STUDY_H
#define MOTUS_STUDY_H

#include <stdio.h>

#include "motus/error.h"
#include "motus/model.h"

#define MT_STUDY_VARS 16        /* design variables per study */
#define MT_STUDY_RESPONSES 64   /* responses per study */
#define MT_STUDY_LEVELS 4096    /* values of one variable; cases of a design */
#define MT_STUDY_UNIT 16
#define MT_STUDY_CONSTRAINTS 16 /* constraints of an optimisation */
#define MT_STUDY_MAXEVAL 10000  /* evaluations an optimisation may make */

typedef enum { MT_DESIGN_GRID, MT_DESIGN_LHS, MT_DESIGN_TABLE, MT_DESIGN_OAT } MtDesignKind;

/* A design variable: the parameter it sets, its values as a list (nlevel
 * values) or a range lo … hi with count equally spaced values (count 0: the
 * range of a Latin hypercube, sampled continuously). Values are in unit (""
 * = the parameter's own unit). */
typedef struct {
    char name[MT_NAME_MAX];
    char unit[MT_STUDY_UNIT];
    int is_range;
    double lo, hi;
    int count;
    int nlevel;
    double *level; /* the list (is_range 0) */
} MtStudyVar;

typedef enum {
    MT_RESP_VALUE,    /* the column's value at time `at` (linear between frames) */
    MT_RESP_MIN,
    MT_RESP_MAX,
    MT_RESP_MEAN,     /* time average (trapezoids) over [from, to] */
    MT_RESP_RMS,      /* root of the time average of the square over [from, to] */
    MT_RESP_PSD_PEAK, /* largest Welch PSD value in [f0, f1], unit²/Hz */
    MT_RESP_PSD_FREQ, /* the frequency of that largest value, Hz */
    MT_RESP_EXPR,     /* an expression of the responses before it and the variables */
    MT_RESP_SETTLE    /* settling time: from `from` until the column stays within tol of its value at `to` */
} MtRespKind;

typedef struct {
    char name[MT_NAME_MAX];
    MtRespKind kind;
    char column[MT_PLOT_NAME]; /* a result column (docs/model-format.md, "Result columns") */
    double at;                 /* MT_RESP_VALUE */
    double from, to;           /* time window; to = INFINITY: to the end */
    double f0, f1;             /* PSD band, Hz */
    double resolution;         /* PSD: frequency resolution asked for, Hz (0: Welch's default of 8 segments) */
    double tol;                /* MT_RESP_SETTLE: the band about the final value, the column's unit */
    char expr[MT_EXPR_MAX];    /* MT_RESP_EXPR */
} MtStudyResponse;

/* A constraint of an optimisation: a response kept at or below (ge 0) or at
 * or above (ge 1) a bound, in the response's unit. */
typedef struct {
    char resp[MT_NAME_MAX];
    int ge;
    double bound;
} MtStudyConstraint;

typedef struct MtStudy {
    MtDesignKind design;
    int samples;         /* Latin hypercube: cases */
    unsigned long seed;  /* Latin hypercube: seed of its generator (same seed, same cases) */
    int nvar;
    MtStudyVar var[MT_STUDY_VARS];
    int nresp;
    MtStudyResponse resp[MT_STUDY_RESPONSES];
    int nrow;            /* design table: cases */
    double *row;         /* nrow × nvar values */
    /* An optimisation (`study objective …`): instead of a design, the
     * optimiser (core/analysis/mt_study_opt.c) chooses each case from the
     * ones before; a range variable is optimised between its ends, a variable
     * of one level held there. */
    int optimize;                /* 1: an objective is given */
    int maximize;                /* 0 minimise, 1 maximise */
    char objective[MT_NAME_MAX]; /* the response optimised */
    int ncons;
    MtStudyConstraint cons[MT_STUDY_CONSTRAINTS];
    int maxeval;                 /* evaluations at most (cases) */
    double xtol;                 /* stop when a step is below xtol of each variable's range */
} MtStudy;

MtStudy *mt_study_new(void);
void mt_study_free(MtStudy *s);
/* Deep copy (NULL in, NULL out; NULL when out of memory with s not NULL). */
MtStudy *mt_study_copy(const MtStudy *s);

/* Reads one `study …` statement (tok[0] is "study") into s. MT_OK, or an
 * error whose message says what to write (the caller adds file and line). */
MtStatus mt_study_read(MtStudy *s, int ntok, char *const *tok, MtError *err);
/* Reads `study …` statements, one a line (what mt_study_write writes; the project's study_lines). */
MtStatus mt_study_read_text(MtStudy *s, const char *text, MtError *err);
/* The study's statements in canonical form (what mt_study_read reads back). */
void mt_study_write(const MtStudy *s, FILE *f);
/* The same as one malloc'ed string (NULL when out of memory). */
char *mt_study_text(const MtStudy *s);
/* Checks the study against its model: every variable is a parameter (with a
 * unit convertible to the parameter's), values finite, table rows complete,
 * response names distinct, expressions read only earlier responses and the
 * variables. Messages name the variable or response. */
MtStatus mt_study_check(const MtStudy *s, const MtModel *m, MtError *err);

/* The number of cases of the design (-1 with err set when there are none or
 * too many); of an optimisation, the most evaluations it may make. */
int mt_study_ncases(const MtStudy *s, MtError *err);
/* The variables' values of case i (nvar values, each in its variable's unit);
 * an error for an optimisation, whose cases the optimiser chooses. */
MtStatus mt_study_case(const MtStudy *s, int i, double *values, MtError *err);
/* Sets the model's parameters to case values (converted to each parameter's
 * unit) and evaluates the parameters again. */
MtStatus mt_study_apply(const MtStudy *s, MtModel *m, const double *values, MtError *err);
/* The name of a response kind ("value", "rms", "psd_peak" …) and back (-1 when unknown). */
const char *mt_study_resp_kind_name(MtRespKind k);
int mt_study_resp_kind_from_name(const char *s);
const char *mt_study_design_name(MtDesignKind d);
/* The index of a response by name (-1 when there is none). */
int mt_study_find_response(const MtStudy *s, const char *name);

#endif
