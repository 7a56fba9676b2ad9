/* cli_project.h — motus-cli and projects (SQLite files, include/motus/store.h):
 * the project commands, and the hooks through which 'run', 'check' and
 * 'export' accept a project wherever they accept a text model. */
#ifndef CLI_PROJECT_H
#define CLI_PROJECT_H

#include <stdio.h>

#include "motus/model.h"
#include "motus/run.h"

/* The project commands' lines of the usage text. */
void cli_project_usage(FILE *f);
/* True for import, runs, export-csv, delete-run and compact. */
int cli_project_handles(const char *cmd);
/* Runs one of those commands; the exit status. */
int cli_project_main(int argc, char **argv);

/* The model of PATH: a project (recognised by its first bytes) or a text
 * model. For 'run' the project stays open to receive the run; for 'check' its
 * file is checked as a whole first. */
MtModel *cli_load_model(const char *cmd, const char *path, MtError *err);

/* Storing a run of 'run PROJECT': begin (a no-op, *run = NULL, for text
 * models), one call per frame (non-zero stops the run), end with the run's
 * outcome (prints where it went unless quiet). begin and end return 0 or 1. */
typedef struct CliStoreRun CliStoreRun;
int cli_store_run_begin(const char *path, const MtSystem *s, CliStoreRun **run, MtError *err);
int cli_store_run_frame(CliStoreRun *run, MtState *st);
int cli_store_run_end(CliStoreRun *run, MtStatus result, const MtError *run_err, int quiet);
/* Writes the events that fired in the run into the project's run log. */
void cli_store_run_events(CliStoreRun *run, const MtState *st);

#endif
