/* motus-recent.c — recent projects (see motus-recent.h). */
#include "motus-recent.h"

#include <string.h>

#define RECENT_MAX 10

static char *recent_file(void) { return g_build_filename(g_get_user_config_dir(), "motus", "recent", NULL); }

char **motus_recent_list(void)
{
    g_autofree char *file = recent_file(), *text = NULL;
    GPtrArray *out = g_ptr_array_new();
    if (g_file_get_contents(file, &text, NULL, NULL)) {
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        for (int i = 0; lines[i] && out->len < RECENT_MAX; i++)
            if (lines[i][0] && g_file_test(lines[i], G_FILE_TEST_IS_REGULAR)) g_ptr_array_add(out, g_strdup(lines[i]));
    }
    g_ptr_array_add(out, NULL);
    return (char **)g_ptr_array_free(out, FALSE);
}

void motus_recent_add(const char *path)
{
    g_autofree char *abs = g_canonicalize_filename(path, NULL);
    g_auto(GStrv) old = motus_recent_list();
    g_autoptr(GString) s = g_string_new(abs);
    g_string_append_c(s, '\n');
    for (int i = 0, n = 1; old[i] && n < RECENT_MAX; i++)
        if (strcmp(old[i], abs)) {
            g_string_append_printf(s, "%s\n", old[i]);
            n++;
        }
    g_autofree char *file = recent_file(), *dir = g_path_get_dirname(file);
    g_mkdir_with_parents(dir, 0700);
    g_file_set_contents(file, s->str, (gssize)s->len, NULL); /* a list we cannot keep is no reason to fail */
}

char *motus_recent_label(const char *path)
{
    g_autofree char *base = g_path_get_basename(path), *dir = g_path_get_dirname(path);
    const char *home = g_get_home_dir();
    size_t lh = home ? strlen(home) : 0;
    if (lh > 1 && !strncmp(dir, home, lh) && (dir[lh] == '/' || !dir[lh])) {
        char *tilde = g_strconcat("~", dir + lh, NULL);
        g_free(dir);
        dir = tilde;
    }
    return g_strdup_printf("%s — %s", base, dir);
}
