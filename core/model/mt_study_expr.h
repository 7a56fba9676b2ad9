/* mt_study_expr.h — for core/analysis/mt_study_run.c: an expression response
 * compiled with its names bound (variables in slots 0 … nvar-1, response i in
 * slot nvar + i). NULL with a message naming the response. */
#ifndef MT_STUDY_EXPR_H
#define MT_STUDY_EXPR_H

#include "motus/study.h"

void *mt_study_expr_compile(const MtStudy *s, int r, MtError *err);

#endif
