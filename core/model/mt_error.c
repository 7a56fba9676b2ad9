/* mt_error.c — filling the error record. Declared in motus/error.h. */
#include "motus/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

size_t mt_utf8_prefix(const char *s, size_t max)
{
    size_t len = strnlen(s, max + 1);
    if (len <= max) return len;
    size_t k = max; /* s[k], the first byte left out, must not continue a character */
    while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80) k--;
    return k;
}

/* Bytes of the whole characters of s within limit, counted from the lead
 * bytes (s may itself end inside a character, as snprintf left it). */
static size_t whole_chars(const char *s, size_t limit)
{
    size_t i = 0;
    while (s[i]) {
        unsigned char c = (unsigned char)s[i];
        size_t l = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        if (i + l > limit) break;
        i += l;
    }
    return i;
}

/* buf holds a text of full bytes cut by (v)snprintf to n: cut at a character, end with "…". */
static void utf8_tidy(char *buf, size_t n, int full)
{
    if (full < 0 || (size_t)full < n || n == 0) return;
    static const char ell[] = "\xe2\x80\xa6"; /* … */
    if (n <= sizeof ell) {
        buf[whole_chars(buf, n - 1)] = 0;
        return;
    }
    size_t k = whole_chars(buf, n - sizeof ell);
    memcpy(buf + k, ell, sizeof ell);
}

int mt_utf8_fmt(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int full = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    utf8_tidy(buf, n, full);
    return full;
}

MtStatus mt_error_set(MtError *err, MtStatus code, const char *entity, const char *fmt, ...)
{
    if (!err) return code;
    err->code = code;
    utf8_tidy(err->entity, sizeof err->entity, snprintf(err->entity, sizeof err->entity, "%s", entity ? entity : ""));
    va_list ap;
    va_start(ap, fmt);
    int full = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    utf8_tidy(err->msg, sizeof err->msg, full);
    return code;
}

void mt_error_clear(MtError *err)
{
    if (!err) return;
    memset(err, 0, sizeof *err);
}
