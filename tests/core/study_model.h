/* study_model.h — the spring–mass the study tests vary: a mass m on a spring
 * k along x, x(t) = 1 + 0.1 cos(√(k/m) t) from rest at 1.1 m; with_study
 * appends study lines to it (test_study.c, test_study_opt.c). */
#ifndef MOTUS_TEST_STUDY_MODEL_H
#define MOTUS_TEST_STUDY_MODEL_H

#include <stdio.h>

#include "motus/model.h"

#define STUDY_SPRING_MODEL(MASS)                                                                                   \
    "motus-model 1\n"                                                                                              \
    "solver method dp54 step 0.01 until 1 rtol 1e-12 atol 1e-14\n"                                                 \
    "parameter m " MASS " kg\n"                                                                                    \
    "parameter k 200 N/m\n"                                                                                        \
    "ground\n  marker anchor at 0 0 0 z 1 0 0\nend\n"                                                              \
    "body mass\n  mass {m}\n  inertia 0.01 0.01 0.01\n  position 1.1 0 0\n  marker hook at 0 0 0 z 1 0 0\nend\n" \
    "joint slide prismatic mass.hook ground.anchor\n"                                                              \
    "spring coil mass.hook ground.anchor k {k} length 1\n"

/* The model text model with the study lines appended, parsed as file name. */
static inline MtModel *study_model_parse(const char *model, const char *study, const char *name, MtError *err)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s", model, study);
    return mt_model_parse_text(text, name, err);
}

#endif
