/* mt_error.c — filling the error record. */
#include "mt_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

MtStatus mt_error_set(MtError *err, MtStatus code, const char *entity, const char *fmt, ...)
{
    if (!err) return code;
    err->code = code;
    snprintf(err->entity, sizeof err->entity, "%s", entity ? entity : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}

void mt_error_clear(MtError *err)
{
    if (!err) return;
    memset(err, 0, sizeof *err);
}
