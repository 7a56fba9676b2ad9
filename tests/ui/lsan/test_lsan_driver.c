/* test_lsan_driver.c — why and how the sanitizer build keeps the GL driver
 * loaded (ui/motus-gl-driver.h), shown on a stand-in driver (fake_dri.so)
 * that leaks and is unloaded before exit, as Mesa's is:
 *   test_lsan_driver DRIVER kept      the driver kept loaded: its leak is
 *                                     named and lsan.supp suppresses it (exit 0)
 *   test_lsan_driver DRIVER unloaded  not kept: the leak comes from
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
    if (strcmp(argv[2], "unloaded")) {
        int kept = motus_gl_driver_keep_loaded();
        printf("driver modules kept loaded: %d\n", kept);
        if (kept < 1) return 2;
    }
    if (!strcmp(argv[2], "own")) motus_own_leak();
    dlclose(h);
    return 0;
}
