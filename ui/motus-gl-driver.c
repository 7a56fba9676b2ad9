/* motus-gl-driver.c — the GL driver kept loaded in sanitizer builds (motus-gl-driver.h). */
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
static int keep_one(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    int *kept = data;
    if (!motus_gl_driver_is_driver(info->dlpi_name)) return 0;
    /* RTLD_NOLOAD: only a module already loaded; RTLD_NODELETE then sticks to it (glibc), and the
     * reference taken here is never dropped */
    if (dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE)) (*kept)++;
    return 0;
}

int motus_gl_driver_keep_loaded(void)
{
    int kept = 0;
    dl_iterate_phdr(keep_one, &kept);
    return kept;
}
#else
int motus_gl_driver_keep_loaded(void) { return 0; }
#endif
