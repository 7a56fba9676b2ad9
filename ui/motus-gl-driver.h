/* motus-gl-driver.h — keeping the OpenGL driver loaded until the process
 * ends, in sanitizer builds (MOTUS_SANITIZE): Mesa unloads its driver
 * (swrast_dri.so and the libraries it brought) at exit, before
 * LeakSanitizer looks, so a leak inside the driver is reported from
 * "<unknown module>" and no suppression by name can match it. Kept loaded,
 * its frames carry the module's name and tests/ui/lsan.supp matches them,
 * while a leak in Motus's own code is still reported. */
#pragma once

/* Marks the loaded GL driver modules RTLD_NODELETE (call with a GL context
 * made, so the driver is loaded); returns how many were marked. A no-op
 * returning 0 outside sanitizer builds. */
int motus_gl_driver_keep_loaded(void);

/* Whether a loaded module's path is one of the GL driver's. */
int motus_gl_driver_is_driver(const char *path);
