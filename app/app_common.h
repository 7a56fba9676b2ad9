/* app_common.h — what the command-line program and the application share:
 * choosing the message language, and the "motus-cli: message" error line. */
#ifndef APP_COMMON_H
#define APP_COMMON_H

#include "motus/error.h"

/* The user's locale for messages, the text domain "motus" bound to the first
 * of $MOTUS_LOCALEDIR, <dir of this executable>/../locale (the build tree) and
 * the install LOCALEDIR; numbers stay in the C locale (the parser reads "0.5"
 * and CSV files print a '.' whatever the language). */
void app_init_i18n(void);
/* "motus-cli: " and a message (already translated) on standard error. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the error's message with cli_err; returns 1 (the exit status). */
int cli_fail(const MtError *e);

#endif
