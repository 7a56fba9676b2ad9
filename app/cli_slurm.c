/* cli_slurm.c — a study on a Slurm cluster (docs/studies.md): the unfinished
 * cases as one job array whose tasks each run `motus-cli study-case` into
 * their own result file, and --collect, which gathers them into the project. */
#include <libintl.h>
#include <stdio.h>
#include <string.h>

#include "app_common.h"
#include "cli_study.h"

#define _(s) gettext(s)

int cli_slurm(const char *project, MtStore *store, const MtModel *m, int argc, char **argv)
{
    (void)project, (void)store, (void)m, (void)argc, (void)argv;
    cli_err("%s", _("studies on Slurm are not implemented yet"));
    return 1;
}
