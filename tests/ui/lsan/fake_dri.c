/* fake_dri.c — a stand-in for Mesa's swrast_dri.so in the LeakSanitizer
 * tests (tests/ui/CMakeLists.txt, lsan_*): a module named like a GL driver
 * that leaks 128 bytes from realloc, as Mesa 22.3.6's driver does, and is
 * unloaded before the process ends. */
#include <stdlib.h>

void fake_driver_leak(void);

void fake_driver_leak(void)
{
    void *volatile p = realloc(NULL, 128);
    (void)p;
}
