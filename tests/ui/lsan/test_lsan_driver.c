/* test_lsan_driver.c — why and how the sanitizer build keeps the GL driver
 * loaded (ui/motus-gl-driver.h), shown on a stand-in driver (fake_dri.so)
 * that leaks and is unloaded before exit, as Mesa's is:
 *   test_lsan_driver DRIVER kept      dlclose() leaves the driver loaded: its
 *                                     leak is named and lsan.supp suppresses it (exit 0)
 *   test_lsan_driver DRIVER unloaded  holding off: the leak comes from
 *                                     "<unknown module>" and fails the run
 *   test_lsan_driver DRIVER own       kept, and a leak in this program's own
 *                                     code: still reported (fails the run) */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motus-gl-driver.h"

static void *volatile sink;

__attribute__((noinline)) static void motus_own_leak(void)
{
    sink = malloc(77);
    sink = NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_lsan_driver DRIVER kept|unloaded|own\n");
        return 2;
    }
    void *h = dlopen(argv[1], RTLD_NOW);
    void (*leak)(void) = h ? (void (*)(void))dlsym(h, "fake_driver_leak") : NULL;
    if (!leak) {
        fprintf(stderr, "cannot load %s: %s\n", argv[1], dlerror());
        return 2;
    }
    leak();
    motus_gl_driver_hold(strcmp(argv[2], "unloaded") != 0);
    if (!strcmp(argv[2], "own")) motus_own_leak();
    dlclose(h);
    if (!strcmp(argv[2], "kept")) { /* held: still there */
        void *still = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
        printf("driver still loaded after dlclose: %s\n", still ? "yes" : "no");
        fflush(stdout);
        if (!still) return 2;
    }
    return 0;
}
