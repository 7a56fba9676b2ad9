/* motus/lesson.h — a course problem as the lesson mode reads it: the comment
 * lines `# KEY: TEXT` at the head of a model of projects/course/
 * (docs/course.md, "The comment layout") — its title, statement in English
 * and Russian, answer, what shows it, and its checks (`# check: ANALYSIS
 * COLUMN at T answer VALUE UNIT [closed EXPR]`) — and the judging of an
 * answer a student types with its unit. */
#ifndef MOTUS_LESSON_H
#define MOTUS_LESSON_H

#include <stddef.h>

#include "motus/units.h"

#define MT_LESSON_CHECKS 16

typedef struct {
    char analysis[16]; /* run, kinematics, statics, modes */
    char column[80];   /* a result column or sensor; for modes the mode's number */
    double t;          /* the frame's time (ignored when at_end) */
    int at_end;
    double value;      /* the answer as printed, in unit */
    char unit[32];     /* as written ("m/s²", "1") */
    double half_digit; /* half a unit of the printed value's last digit (in unit) */
} MtLessonCheck;

typedef struct {
    char *problem, *topic, *source, *en, *ru, *answer, *answer_ru, *show, *note; /* "" when absent */
    int ncheck;
    MtLessonCheck check[MT_LESSON_CHECKS];
} MtLesson;

/* Reads the lesson of a model's text (the comments before its first
 * statement). Returns 1 for a course problem (it has `# problem:` and at least
 * one valid check), 0 when the text is no course problem (*out empty), -1 when
 * out of memory. Free with mt_lesson_free. */
int mt_lesson_read(const char *text, MtLesson *out);
void mt_lesson_free(MtLesson *l);

/* An answer is right when it is within 1 % of the printed value, or within
 * half a unit of its last digit, whichever is wider (a zero answer: within
 * 0.001 of its unit). */
#define MT_LESSON_TOLERANCE 0.01

typedef enum {
    MT_LESSON_RIGHT,
    MT_LESSON_WRONG,      /* a value of the right quantity, outside the tolerance */
    MT_LESSON_NO_UNIT,    /* a number without a unit (the answer has one) */
    MT_LESSON_OTHER_UNIT, /* a unit of another quantity, or not a unit */
    MT_LESSON_UNREADABLE  /* no number */
} MtLessonVerdict;

/* Judges `typed` ("0.566 m/s", "56,6 см/с", "566 mm/s") against check c;
 * *si (may be NULL) gets the value read, in SI. A decimal comma is read as a
 * point; units as the interface shows them in the user's language are read. */
MtLessonVerdict mt_lesson_judge(const MtLessonCheck *c, const char *typed, double *si);
/* The check's answer in SI and its quantity (MT_DIM_NONE for a pure number). */
double mt_lesson_answer_si(const MtLessonCheck *c, MtDim *dim);

#endif
