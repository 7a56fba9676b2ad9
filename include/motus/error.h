/* motus/error.h — the error record every core call that can fail fills in:
 * a status code, the name of the entity it is about, and a one-line message. */
#ifndef MT_ERROR_H
#define MT_ERROR_H

typedef enum {
    MT_OK = 0,
    MT_ERR_IO,        /* file cannot be read or written */
    MT_ERR_SYNTAX,    /* text model malformed */
    MT_ERR_MODEL,     /* model inconsistent or non-physical */
    MT_ERR_SOLVE,     /* singular system, divergence, NaN */
    MT_ERR_NOMEM,
    MT_ERR_ARG        /* nonsense argument from the caller */
} MtStatus;

typedef struct MtError {
    MtStatus code;
    char entity[96]; /* name of the entity the message is about ("" if none) */
    char msg[512];   /* full one-line message, already naming the entity */
} MtError;

/* Record an error (printf-style message); returns code. err may be NULL.
 * fmt is the translated message: pass MT_("...") (mt_i18n.h), so that the
 * message reaches the user in their language; entity stays untranslated. */
MtStatus mt_error_set(MtError *err, MtStatus code, const char *entity, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Reset to MT_OK. */
void mt_error_clear(MtError *err);

/* Texts cut to fit a fixed buffer end on a whole UTF-8 character (a label
 * of the Russian solver dialog showed "…мет" and half a letter).
 * mt_utf8_prefix: bytes of the longest prefix of s of at most max bytes that
 * does not end inside a character. mt_utf8_fmt: snprintf that, when the text
 * does not fit, cuts it there and ends it with "…", so the cut shows; it
 * returns the full length, as snprintf does. mt_error_set cuts the same way. */
#include <stddef.h>
size_t mt_utf8_prefix(const char *s, size_t max);
int mt_utf8_fmt(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
