/* app_common.h — what the command-line program and the application share:
 * choosing the message language, OpenBLAS's thread count, and the
 * "motus-cli: message" error line. */
#ifndef APP_COMMON_H
#define APP_COMMON_H

#include "motus/error.h"

/* The user's locale for messages, the text domain "motus" bound to the first
 * of $MOTUS_LOCALEDIR, <dir of this executable>/../locale (the build tree) and
 * the install LOCALEDIR; numbers stay in the C locale (the parser reads "0.5"
 * and CSV files print a '.' whatever the language). */
void app_init_i18n(void);
/* OpenBLAS at one thread unless OPENBLAS_NUM_THREADS or OMP_NUM_THREADS
 * says otherwise. Motus's BLAS calls are small (a flexible body's modal
 * products, the supernodes of a reduction's factor, a linearisation's dense
 * factor), and OpenBLAS's idle threads spin and yield between them: on two
 * cores the 70-mode railcar's modes took 19.1 s with its threads against
 * 4.3 s with one, its run 4.2-5.4 s against 3.2 s, the strut's reduction
 * 1.9-2.4 s against 1.0 s (docs/dependencies.md). OpenBLAS is looked up at
 * run time: libblas.so.3 may be another BLAS, without the call. */
void app_init_blas(void);
/* "motus-cli: " and a message (already translated) on standard error. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the error's message with cli_err; returns 1 (the exit status). */
int cli_fail(const MtError *e);

#endif
