/* cli_study.h — motus-cli's studies (docs/studies.md): the local runner and
 * its worker processes (cli_study.c), one case run into its own result file
 * (cli_study_case.c) and the Slurm job array (cli_slurm.c). Shared here: the
 * study's working directory and its result files. */
#ifndef CLI_STUDY_H
#define CLI_STUDY_H

#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

#include "motus/store.h"
#include "motus/study.h"

/* The study's working directory: PROJECT.study next to the project (case
 * result files, logs, kept frames, the batch script). */
void study_dir(const char *project, char *buf, size_t n);
/* A key of what a case's results depend on (the study's text and the model
 * version): a result file with another key is stale. */
unsigned long long study_key(const MtStudy *s, long model_version);
/* DIR/case-NNNNNN.EXT */
void study_case_path(const char *dir, int c, const char *ext, char *buf, size_t n);
/* Reads a case's result file: 1 when it is there with the key, 0 when absent
 * or stale or unreadable. */
int study_read_result(const char *path, const MtStudy *s, unsigned long long key, MtStudyCaseResult *r);
/* This program's absolute path, for workers and batch scripts: argv[0] when it
 * names a file (so a program run under a tool such as valgrind starts itself,
 * not the tool), else /proc/self/exe. */
void study_self_exe(const char *argv0, char *buf, size_t n);
/* `motus-cli study-case PROJECT --case I --dir DIR [--keep-frames]`: one case into its result file. */
int cli_study_case(int argc, char **argv);
/* `motus-cli study PROJECT …`. */
int cli_study(int argc, char **argv);
/* Its Slurm half: --slurm (write and submit the batch script), --collect. */
int cli_slurm(const char *project, MtStore *store, const MtModel *m, long version, unsigned char *done, int ncase,
              int argc, char **argv);
/* Collects the result files present for unfinished cases into the project;
 * the count, or -1. done[c] is set for each. */
int study_collect_files(MtStore *store, const MtModel *m, const char *dir, unsigned long long key, unsigned char *done,
                        int ncase, int *failed, MtError *err);
void cli_study_usage(FILE *f);
/* Set by SIGINT or SIGTERM once study_catch_signals ran (waits return to look at it). */
extern volatile sig_atomic_t study_stop;
void study_catch_signals(void);
/* Starts `motus-cli study-case PROJECT --case C --dir DIR [--keep-frames] [--values V1,V2,…]`,
 * its output into DIR/case-C.log, killed when this process dies. */
pid_t study_start_worker(const char *exe, const char *project, const char *dir, int c, int keep, const char *values);
/* The record of case c (at values) whose worker ended with status and no result file. */
void study_worker_failed(const MtStudy *s, const char *dir, int c, const double *values, int status, MtStudyCaseResult *r);
/* A study with an objective (cli_study_opt.c): its cases one after another as COBYLA asks for them; the optimum reported. */
int cli_study_optimize(const char *project, const char *dir, const char *argv0, MtStore *store, const MtModel *m, long version,
                       int keep, int retry, int quiet);
/* The optimum among an optimisation's cases and whether its constraints hold, on stdout; 0 when they do. */
int study_opt_report(const MtStudy *s, const MtStudyCaseResult *c, int n);

#endif
