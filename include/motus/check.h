/* motus/check.h — the model check (as Adams' Verify): what compiling and
 * assembling a model finds, as a list of findings in words, each naming the
 * entity it is about. motus-cli check prints it; the window shows it in its
 * model-check panel after every edit. core/analysis/mt_check.c. */
#ifndef MOTUS_CHECK_H
#define MOTUS_CHECK_H

#include "motus/model.h"
#include "motus/run.h"

typedef enum {
    MT_CHECK_INFO,    /* worth knowing (a singular start, markers nothing uses) */
    MT_CHECK_WARNING, /* runs, but likely not what was meant (redundant equations, a free body) */
    MT_CHECK_ERROR    /* cannot run (the model does not compile or assemble) */
} MtCheckLevel;

/* One finding: its level, the entity it is about (kind, index; index < 0:
 * the model as a whole) and what was found, translated. */
typedef struct {
    MtCheckLevel level;
    MtEntityKind kind;
    int index;
    char text[1024];
} MtCheckItem;

typedef struct {
    int compiled;       /* 1 when the model compiled and assembled (info is valid) */
    MtSystemInfo info;  /* equations, redundant ones, degrees of freedom (Grübler, rank) */
    int nitem;
    MtCheckItem *item;  /* errors first, then warnings, then information */
} MtCheckReport;

/* Checks m (compiles and assembles a copy; m is not changed). Fails only
 * when memory runs out; a model that does not compile is a report with one
 * error. Free with mt_check_free. */
MtStatus mt_check_model(const MtModel *m, MtCheckReport *r, MtError *err);
/* The same from a compiled, assembled system (motus-cli check). */
MtStatus mt_check_system(const MtSystem *s, MtCheckReport *r, MtError *err);
void mt_check_free(MtCheckReport *r);
/* Findings of the level. */
int mt_check_count(const MtCheckReport *r, MtCheckLevel level);

#endif
