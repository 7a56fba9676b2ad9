/* motus-gl-driver.c — the GL driver kept loaded in sanitizer builds (motus-gl-driver.h). */
#if defined(MOTUS_SANITIZE) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* RTLD_NEXT, dlinfo */
#endif
#include "motus-gl-driver.h"

#include <string.h>

#ifdef MOTUS_SANITIZE
#include <dlfcn.h>
#include <link.h>
#endif

/* Mesa's driver (swrast_dri.so, a "megadriver"), the GLX and EGL vendor
 * libraries that load it, and what it links that nobody else does. */
static const char *const driver_names[] = {"_dri.so", "libGLX_mesa", "libEGL_mesa", "libgallium", "libLLVM",
                                           "libglapi"};

int motus_gl_driver_is_driver(const char *path)
{
    if (!path) return 0;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof driver_names / sizeof *driver_names; i++)
        if (strstr(base, driver_names[i])) return 1;
    return 0;
}

#ifdef MOTUS_SANITIZE
static int holding;

__attribute__((constructor)) static void hold_from_start(void) { holding = 1; }

void motus_gl_driver_hold(int on) { holding = on; }

/* Interposes libc's dlclose (the program exports it: ui/CMakeLists.txt):
 * the driver's modules stay; everything else closes as usual. */
int dlclose(void *handle)
{
    static int (*real_dlclose)(void *);
    if (!real_dlclose) real_dlclose = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
    struct link_map *lm = NULL;
    if (holding && dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm && motus_gl_driver_is_driver(lm->l_name)) return 0;
    return real_dlclose(handle);
}
#else
void motus_gl_driver_hold(int on) { (void)on; }
#endif
