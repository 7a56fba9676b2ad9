/* app_common.c — language set-up and error lines shared by motus-cli and motus. */
#include "app_common.h"

#include <dlfcn.h>
#include <libintl.h>
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MOTUS_INSTALL_LOCALEDIR
#define MOTUS_INSTALL_LOCALEDIR "/usr/local/share/locale"
#endif

void app_init_blas(void)
{
    const char *e = getenv("OPENBLAS_NUM_THREADS");
    if ((e && e[0]) || ((e = getenv("OMP_NUM_THREADS")) && e[0])) return; /* the user's choice */
    void (*set)(int) = (void (*)(int))(size_t)dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    if (set) set(1);
}

void app_init_i18n(void)
{
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    static char exe_dir[PATH_MAX];
    static const char up[] = "/../locale";
    const char *dir = getenv("MOTUS_LOCALEDIR");
    if (!dir || !dir[0]) {
        dir = MOTUS_INSTALL_LOCALEDIR;
        ssize_t n = readlink("/proc/self/exe", exe_dir, sizeof exe_dir - sizeof up);
        if (n > 0 && (size_t)n < sizeof exe_dir - sizeof up) {
            exe_dir[n] = 0;
            char *slash = strrchr(exe_dir, '/');
            struct stat sb;
            if (slash) {
                memcpy(slash, up, sizeof up);
                if (stat(exe_dir, &sb) == 0 && S_ISDIR(sb.st_mode)) dir = exe_dir;
            }
        }
    }
    bindtextdomain("motus", dir);
    bind_textdomain_codeset("motus", "UTF-8");
    textdomain("motus");
}

void cli_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("motus-cli: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_fail(const MtError *e)
{
    cli_err("%s", e->msg[0] ? e->msg : gettext("error"));
    return 1;
}
