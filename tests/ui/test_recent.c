/* The recent-projects menu's labels (ui/motus-recent.c): the file and its
 * folder, the home folder as ~, so that two projects of one name differ. */
#include <glib.h>
#include <string.h>

#include "motus-recent.h"

int main(void)
{
    g_setenv("HOME", "/home/ana", TRUE);
    char *a = motus_recent_label("/home/ana/work/four-bar.motus"), *b = motus_recent_label("/home/ana/old/four-bar.motus");
    char *c = motus_recent_label("/srv/models/gear.motus"), *d = motus_recent_label("/home/anabel/x.motus");
    g_assert_cmpstr(a, ==, "four-bar.motus — ~/work");
    g_assert_cmpstr(b, ==, "four-bar.motus — ~/old");
    g_assert_cmpstr(c, ==, "gear.motus — /srv/models");
    g_assert_cmpstr(d, ==, "x.motus — /home/anabel"); /* another user's folder is not ~ */
    g_free(a), g_free(b), g_free(c), g_free(d);
    return 0;
}
