/* One run (run.c): the launcher's own mode, and what the zygote's children need of it. */
#ifndef CODECELL_RUN_H
#define CODECELL_RUN_H

int launcher_main(int argc, char **argv, char *args_start, char *args_end);
/* In zygote mode, the write end of a pipe the zygote polls; closed once the run is over ("done"
 * written), so that the zygote forks the next spare then rather than at the launcher's exit
 * (after its mount namespace's teardown). -1 otherwise. */
extern int g_run_over_fd;

#endif
