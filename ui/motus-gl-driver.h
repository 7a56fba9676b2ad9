/* motus-gl-driver.h — keeping the OpenGL driver loaded until the process
 * ends, in sanitizer builds (MOTUS_SANITIZE): Mesa unloads its driver
 * (swrast_dri.so and the libraries it brought) at exit — and GDK loads and
 * unloads it once already while it probes GLX and EGL at start-up —, before
 * LeakSanitizer looks, so a leak inside the driver is reported from
 * "<unknown module>" and no suppression by name can match it. Held, its
 * frames carry the module's name and tests/ui/lsan.supp matches them, while
 * a leak in Motus's own code is still reported. */
#pragma once

/* In sanitizer builds the program's dlclose() leaves the GL driver's modules
 * loaded while holding is on — from start-up (a constructor) on —, whoever
 * loaded them and however often. on = 0 lets them go again (the test of
 * what happens without). A no-op outside sanitizer builds. */
void motus_gl_driver_hold(int on);

/* Whether a loaded module's path is one of the GL driver's. */
int motus_gl_driver_is_driver(const char *path);
