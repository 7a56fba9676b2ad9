/* mt_mesh_text.h — line reading, number parsing and error messages shared by
 * the mesh readers (core/flex internal). */
#ifndef MT_MESH_TEXT_H
#define MT_MESH_TEXT_H

#include <stddef.h>

#include "motus/fe.h"
#include "motus/mesh.h"

typedef struct {
    const char *p, *end; /* text not read yet */
    const char *name;    /* file name for messages */
    int line;            /* number of the line returned last (1-based) */
} MtLines;

void mt_lines_init(MtLines *r, const char *text, size_t len, const char *name);
/* Next line without its end-of-line characters; 0 at the end of the text. */
int mt_lines_next(MtLines *r, const char **s, size_t *len);

/* Sets err to "name:line: message" (MT_ERR_SYNTAX); returns -1. */
int mt_mesh_err(MtError *err, const char *name, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Whole-field numbers: surrounding blanks allowed, nothing else. 0 or -1. */
int mt_num_int(const char *s, size_t n, int *out);
int mt_num_double(const char *s, size_t n, double *out);
/* Nastran real: also "1.5-3" (= 1.5e-3), "2.+5", "1.0D2". */
int mt_num_nastran(const char *s, size_t n, double *out);
/* Field is empty or blank. */
int mt_blank(const char *s, size_t n);

/* Records a skipped keyword or card name. */
void mt_mesh_skip(MtFeModel *m, const char *s, size_t n);


/* Format-specific readers (mt_mesh_msh.c, mt_mesh_inp.c, mt_mesh_bdf.c). */
MtFeModel *mt_mesh_read_msh(const char *text, size_t len, const char *name, MtError *err);
MtFeModel *mt_mesh_read_inp(const char *text, size_t len, const char *name, MtError *err);
MtFeModel *mt_mesh_read_bdf(const char *text, size_t len, const char *name, MtError *err);

#endif
